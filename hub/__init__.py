"""The hub of an event: every board's game gathered from an MQTT broker, one store, one page, one public feed.

Boards publish their journals (``cascade run --publish mqtt://HOST/EVENT/BOARD``);
the hub subscribes to every board of the event (:mod:`hub.service`), applies
each journal entry once and in order to its own store (:mod:`hub.recorder`,
the same schema as a board's store, so ``cascade export`` works on it), asks
a board again for what it missed, and serves the event's page and feed
(:mod:`hub.web`). ``cascade hub`` runs it (:mod:`hub.serve`); docs/hub.md says
how to run an event.
"""
