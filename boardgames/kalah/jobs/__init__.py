"""The job-level exact solve of one position, spread over a Dask cluster: the worker side,
the bound store and the search that splits a position into jobs."""
