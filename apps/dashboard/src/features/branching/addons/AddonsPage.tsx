import { useSearchParams } from 'react-router'
import { PageHeader } from '../../../components/ui/PageHeader'
import { QueryState } from '../../../components/ui/QueryState'
import { useProjectAddons } from '../../../data/addons/useProjectAddons'
import { useCan } from '../../../data/profile/useCan'
import { useCurrentProject } from '../../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../../lib/useProjectPageTitle'
import { PitrAddonCard } from './PitrAddonCard'
import '../branching.css'

/** /project/{ref}/addons (and /settings/addons, where the spec's links point): the project's add-ons. */
export function AddonsPage() {
  useProjectPageTitle('Add-ons')
  const { ref, project, organization } = useCurrentProject()
  const [params] = useSearchParams()
  const addons = useProjectAddons(ref)
  const canAmend = useCan(project?.organization_slug, 'billing.write')

  return (
    <div className="page page-narrow">
      <PageHeader title="Add-ons" description="Extras for this project on the Pro plan, billed on top of the organization's subscription." />
      <div className="stack">
        <QueryState query={addons} loadingLabel="Loading add-ons…" errorTitle="Failed to retrieve add-ons" isEmpty={false} empty={null}>
          {addons.data ? (
            <PitrAddonCard
              projectRef={ref}
              orgSlug={project?.organization_slug ?? ''}
              addons={addons.data}
              freePlan={organization?.plan === 'free'}
              canAmend={canAmend}
              highlighted={params.get('panel') === 'pitr'}
            />
          ) : null}
        </QueryState>
      </div>
    </div>
  )
}
