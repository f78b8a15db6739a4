package telemetry

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/XSAM/otelsql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// sqlOptions trace store queries made on behalf of a traced call only (the
// context holds a span): background batches would otherwise make a trace of
// their own per statement. Spans carry the statement with its placeholders,
// never the argument values.
func sqlOptions(system attribute.KeyValue) []otelsql.Option {
	return []otelsql.Option{
		otelsql.WithAttributes(system),
		otelsql.WithSpanOptions(otelsql.SpanOptions{
			OmitConnResetSession: true, OmitConnPrepare: true, OmitRows: true, OmitConnectorConnect: true,
			SpanFilter: func(ctx context.Context, _ otelsql.Method, _ string, _ []driver.NamedValue) bool {
				return trace.SpanContextFromContext(ctx).IsValid()
			},
		}),
	}
}

// OpenSQL is sql.Open, traced when tracing is on. system is the
// db.system.name attribute (semconv.DBSystemNameSQLite…).
func OpenSQL(driverName, dsn string, system attribute.KeyValue) (*sql.DB, error) {
	if !Enabled() {
		return sql.Open(driverName, dsn)
	}
	return otelsql.Open(driverName, dsn, sqlOptions(system)...)
}

// OpenSQLConnector is sql.OpenDB, traced when tracing is on.
func OpenSQLConnector(c driver.Connector, system attribute.KeyValue) *sql.DB {
	if !Enabled() {
		return sql.OpenDB(c)
	}
	return otelsql.OpenDB(c, sqlOptions(system)...)
}
