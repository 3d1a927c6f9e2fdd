import { Link } from 'react-router'
import '../../components/ui/button.css'
import './resource-warnings.css'
import { Alert } from '../../components/ui/Alert'
import { useResourceWarnings } from '../../data/usage/useResourceWarnings'
import { alertOf, bannerVisible, MESSAGES } from './messages'

/** The resource warning banner at the top of project pages, with the spec's visibility rules. */
export function ResourceWarningBanner({ projectRef, route }: { projectRef: string; route: string }) {
  const { data } = useResourceWarnings()
  const alert = alertOf(data?.find((record) => record.project === projectRef))
  if (!alert || !bannerVisible(alert, route)) return null
  const message = MESSAGES[alert.kind]
  return (
    <div className="resource-warning-banner" data-testid="resource-warning-banner" data-kind={alert.kind} data-level={alert.level}>
      <Alert
        tone={alert.level === 'critical' ? 'danger' : 'warning'}
        live={false}
        title={message.title[alert.level]}
        actions={
          <Link className="btn btn-secondary btn-sm" to={`/project/${projectRef}${message.to}`}>
            {message.button}
          </Link>
        }
      >
        {message.description[alert.level]}
      </Alert>
    </div>
  )
}
