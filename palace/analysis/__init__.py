"""Analysis: batch evaluation, exact odds, bots, bot hands, named variants, rule studies as
seeded shards (serial or on Dask), charts; a searching bot, every bot's reasons in words and
variant studies with adaptive players (search_bot, bot_reasons, variant_effects); with the
``agents`` extra, Palace as an OpenSpiel game and a solved small Palace (spiel_game, solver,
perfect_play)."""
