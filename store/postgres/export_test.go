package postgres

// SearchPathSchema exposes searchPathSchema to the tests.
var SearchPathSchema = searchPathSchema
