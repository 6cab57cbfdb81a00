def device_count():
    return 0
