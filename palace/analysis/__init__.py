"""Analysis: batch evaluation, exact odds, bots, rule studies, charts and named variants; with
the ``agents`` extra, Palace as an OpenSpiel game, a solved small Palace, a searching bot and
variant studies with adaptive players (spiel_game, solver, perfect_play, search_bot,
variant_effects)."""
