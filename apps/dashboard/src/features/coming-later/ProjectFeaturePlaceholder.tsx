import { Link, useParams } from 'react-router'
import { ComingLater } from '../../components/ComingLater'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { LATER_FEATURES, type LaterFeatureKey } from './features'

/** A project route whose feature comes later: honest text, the project title, a real way forward. */
export function ProjectFeaturePlaceholder({ feature }: { feature: LaterFeatureKey }) {
  const { ref = '' } = useParams()
  const entry = LATER_FEATURES[feature]
  useProjectPageTitle(entry.title)
  return (
    <ComingLater
      title={entry.title}
      description={entry.description}
      release={entry.release}
      items={entry.items}
      meanwhile={
        <>
          Meanwhile, connect with <code>psql</code> or any Postgres client using the details on the{' '}
          <Link to={`/project/${ref}`}>project home page</Link>.
        </>
      }
    />
  )
}
