package registry

// Category returns the category of a tool's action, "" when either is
// unknown: what the billing plan prices a call by.
func (r *Registry) Category(tool, action string) string {
	e, ok := r.Tool(tool)
	if !ok {
		return ""
	}
	a, ok := e.Action(action)
	if !ok {
		return ""
	}
	return string(a.Category)
}
