"""The games, one package each, with the same module names for the same concepts.

============  ==========================================================================
``cards``     the deck: :class:`Card`, :class:`Cards` (an int mask behind a noun object)
``rules``     the rule options of the game's one rule table (``Rules`` / ``RuleConfig``)
``plays``     combinations: classify, beats, legal plays
``game``      one hand: verify / can / do, frozen records, views
``view``      what one seat may know (the only thing a bot or a socket sees)
``match``     hand after hand (the table layer's match driver)
``replay``    the game's files (saved hands and matches)
``bots``      the bot levels
``explain``   why a bot chose its action, as a value, worded per language
``refusals``  why an action was refused
``spec``      the game as the table layer sees it (registered by name)
``board``     the terminal board
``words``     the game's wording per language
``core``      the native core, re-exported
============  ==========================================================================

No module outside this package imports a game's modules: services find a game by name in
the registry (:func:`tienlen.table.get_spec`). :mod:`.spelling` is the card-text reader
both decks share.
"""
