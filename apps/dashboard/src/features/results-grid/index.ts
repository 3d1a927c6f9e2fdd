export { ResultsGrid } from './ResultsGrid'
