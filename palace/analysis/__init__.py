"""Analysis: batch evaluation, exact odds, bots, bot hands, named variants, rule studies as
seeded shards (serial or on Dask), charts; with the ``agents`` extra, Palace as an OpenSpiel
game, a solved small Palace, a searching bot and variant studies with adaptive players
(spiel_game, solver, perfect_play, search_bot, variant_effects)."""
