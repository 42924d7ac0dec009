"""Plain-text jobs every stage shares: Markdown code fences (:mod:`.fences`), cutting text to a
limit (:mod:`.cut`), the line standing for omitted lines (:mod:`.omitted`) and byte-order marks
(:mod:`.boms`).

The lowest layer of the package: it imports nothing of ctxaction, so the repository adapters,
ranking, packing, rendering and delivery may all use it.
"""
