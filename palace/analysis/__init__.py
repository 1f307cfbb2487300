"""Analysis: batch evaluation, exact odds, bots, rule studies, charts and named variants."""
