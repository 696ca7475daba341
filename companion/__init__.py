"""The Mexican Train table companion (the web app lives here; the rules engine in ``rules``)."""
