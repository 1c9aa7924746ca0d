"""The rules of a tournament, apart from Discord and storage: who meets whom each round
(`pairing` for Swiss rounds and tables of several seats, `schedules` for knockout brackets and
round robins), what a table's result is worth (`scoring`) and the order of the table
(`standings`). Everything here is a pure function of its inputs: the same entrants and rounds
give the same pairings and standings, ties broken by rating, then by the smaller player id.
"""
