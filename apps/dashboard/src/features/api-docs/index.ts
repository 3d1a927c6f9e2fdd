// The API docs drawer loads on demand (ApiDocsButton's lazy import): importing this entry is light.
export { ApiDocsButton } from './ApiDocsButton'
