// The one source of loom_test_pch, the target whose precompiled header
// (Catch2, RapidCheck, common standard headers) every test executable reuses.
// It defines nothing.
