import { useCurrentProject } from '../data/projects/useCurrentProject'
import { usePageTitle } from './usePageTitle'

/** 'page | project | organization | Stratum' inside a project, shorter while parts load. */
export function useProjectPageTitle(page?: string) {
  const { project, organization } = useCurrentProject()
  usePageTitle([page, project?.name, organization?.name])
}
