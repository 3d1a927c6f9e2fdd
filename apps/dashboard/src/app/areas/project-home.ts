// Loaded on demand: a project's home (connection details, database password).
export { ProjectHomePage } from '../../features/project-home/ProjectHomePage'
