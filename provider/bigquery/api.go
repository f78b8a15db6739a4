package bigquery

// The BigQuery v2 JSON shapes the adapter reads and writes. int64 values
// travel as decimal strings, as the API sends them.

// fieldSchema is a TableFieldSchema.
type fieldSchema struct {
	Name        string        `json:"name"`
	Type        string        `json:"type"`
	Mode        string        `json:"mode,omitempty"`
	Description string        `json:"description,omitempty"`
	Fields      []fieldSchema `json:"fields,omitempty"`
}

type tableSchema struct {
	Fields []fieldSchema `json:"fields"`
}

type jobReference struct {
	ProjectID string `json:"projectId"`
	JobID     string `json:"jobId"`
	Location  string `json:"location,omitempty"`
}

// cell is one f/v cell: v is a string, null, a list of cells (REPEATED) or a
// row (RECORD).
type cell struct {
	V any `json:"v"`
}

type row struct {
	F []cell `json:"f"`
}

// queryParameter is a named query parameter.
type queryParameter struct {
	Name           string         `json:"name"`
	ParameterType  parameterType  `json:"parameterType"`
	ParameterValue parameterValue `json:"parameterValue"`
}

type parameterType struct {
	Type      string         `json:"type"`
	ArrayType *parameterType `json:"arrayType,omitempty"`
}

type parameterValue struct {
	Value       *string          `json:"value,omitempty"`
	ArrayValues []parameterValue `json:"arrayValues,omitempty"`
}

// queryRequest is the body of jobs.query.
type queryRequest struct {
	Query              string           `json:"query"`
	UseLegacySQL       bool             `json:"useLegacySql"`
	MaxResults         int              `json:"maxResults,omitempty"`
	MaximumBytesBilled string           `json:"maximumBytesBilled,omitempty"`
	TimeoutMs          int              `json:"timeoutMs,omitempty"`
	Location           string           `json:"location,omitempty"`
	ParameterMode      string           `json:"parameterMode,omitempty"`
	QueryParameters    []queryParameter `json:"queryParameters,omitempty"`
	DryRun             bool             `json:"dryRun,omitempty"`
}

// queryResponse is the answer of jobs.query and jobs.getQueryResults.
type queryResponse struct {
	Schema              *tableSchema `json:"schema"`
	JobReference        jobReference `json:"jobReference"`
	TotalRows           string       `json:"totalRows"`
	PageToken           string       `json:"pageToken"`
	Rows                []row        `json:"rows"`
	TotalBytesProcessed string       `json:"totalBytesProcessed"`
	JobComplete         bool         `json:"jobComplete"`
	CacheHit            bool         `json:"cacheHit"`
}

// dryRunJob is the body of jobs.insert for a dry run: only a Job carries
// statistics.query.statementType, which jobs.query does not return.
type dryRunJob struct {
	Configuration struct {
		DryRun bool `json:"dryRun"`
		Query  struct {
			Query              string           `json:"query"`
			UseLegacySQL       bool             `json:"useLegacySql"`
			MaximumBytesBilled string           `json:"maximumBytesBilled,omitempty"`
			ParameterMode      string           `json:"parameterMode,omitempty"`
			QueryParameters    []queryParameter `json:"queryParameters,omitempty"`
		} `json:"query"`
	} `json:"configuration"`
	JobReference *jobReference `json:"jobReference,omitempty"`
}

// job is the part of a Job a dry run answers with.
type job struct {
	JobReference jobReference `json:"jobReference"`
	Statistics   struct {
		TotalBytesProcessed string `json:"totalBytesProcessed"`
		Query               struct {
			StatementType       string       `json:"statementType"`
			TotalBytesProcessed string       `json:"totalBytesProcessed"`
			Schema              *tableSchema `json:"schema"`
		} `json:"query"`
	} `json:"statistics"`
}

// datasetList is the part of a DatasetList (datasets.list) the tools read.
type datasetList struct {
	Datasets []struct {
		DatasetReference struct {
			DatasetID string `json:"datasetId"`
		} `json:"datasetReference"`
		FriendlyName string            `json:"friendlyName"`
		Location     string            `json:"location"`
		Labels       map[string]string `json:"labels"`
	} `json:"datasets"`
	NextPageToken string `json:"nextPageToken"`
}

// tableList is the part of a TableList (tables.list) the tools read.
type tableList struct {
	Tables []struct {
		TableReference struct {
			TableID string `json:"tableId"`
		} `json:"tableReference"`
		Type string `json:"type"`
	} `json:"tables"`
	NextPageToken string `json:"nextPageToken"`
	TotalItems    int    `json:"totalItems"`
}

// tableResource is the part of a Table (tables.get) the tools read.
type tableResource struct {
	TableReference struct {
		DatasetID string `json:"datasetId"`
		TableID   string `json:"tableId"`
	} `json:"tableReference"`
	Type        string      `json:"type"`
	Description string      `json:"description"`
	NumRows     string      `json:"numRows"`
	NumBytes    string      `json:"numBytes"`
	Location    string      `json:"location"`
	Schema      tableSchema `json:"schema"`
}
