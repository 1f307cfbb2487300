"""Analysis: batch evaluation, exact odds, bots, bot hands, named variants, rule studies as
seeded shards (serial or on Dask), charts."""
