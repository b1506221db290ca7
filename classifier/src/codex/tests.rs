//! Data-driven cases: see the module docs.
