import { useParams } from 'react-router'
import { useOrganization } from '../organizations/useOrganization'
import { useProject } from './useProject'

/**
 * The project of the current /project/{ref}/* route and its organization. The project
 * layout loads them first, so pages inside it get cached data at once.
 */
export function useCurrentProject() {
  const { ref = '' } = useParams()
  const project = useProject(ref)
  const organization = useOrganization(project.data?.organization_slug)
  return { ref, project: project.data, organization: organization.data, query: project }
}
