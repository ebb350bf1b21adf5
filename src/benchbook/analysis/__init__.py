"""Analysis: numbers only. Each module turns validated tidy tables into the quantities one chapter
studies (speed-ups, winner sets, knees, fractions of a peak); no sentences, no figures."""
