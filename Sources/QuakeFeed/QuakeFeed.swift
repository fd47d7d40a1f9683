// Streaming USGS feed readers. See issue 3.
