"""How any demo runs: its parameter schema, the device, seeding and timing, the model store,
the code version that keys the cache, file helpers and progress reporting."""
