// Loaded on demand: the project shell (with the resizable panels and the status screens), which
// every project page loads, so the pages themselves are areas of their own (see ../router.tsx).
export { ProjectLayout } from '../layouts/ProjectLayout'
