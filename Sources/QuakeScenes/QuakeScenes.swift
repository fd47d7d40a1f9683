// Scene storage, app storage, user activities. See issue 5.
