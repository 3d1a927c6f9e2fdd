import { BRANCH_PRICE_PER_HOUR, BRANCHING_MIN_POSTGRES_MAJOR } from '@stratum/contracts'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/Alert'
import { billingUpgradeUrl, pitrAddonUrl } from '../links'

/** The free plan cannot use branching (§9): the dialog says so and links to the plan panel. */
export function FreePlanPrompt({ orgSlug }: { orgSlug: string }) {
  return (
    <Alert
      tone="warning"
      title="Database branching is available on the Pro plan"
      live={false}
      actions={
        <Link className="btn btn-primary btn-sm" to={billingUpgradeUrl(orgSlug)}>
          Upgrade to Pro
        </Link>
      }
    >
      This project's organization is on the Free plan. Upgrade the organization to the Pro plan to enable branching.
    </Alert>
  )
}

/** Shown instead of the form when the project's Postgres is older than branching supports. */
export function PostgresVersionNotice({ projectRef, major }: { projectRef: string; major: number }) {
  return (
    <Alert
      tone="warning"
      title={`Branching needs Postgres ${BRANCHING_MIN_POSTGRES_MAJOR} or later`}
      live={false}
      actions={
        <Link className="btn btn-secondary btn-sm" to={`/project/${projectRef}/infrastructure`}>
          Upgrade Postgres
        </Link>
      }
    >
      This project runs Postgres {major}. Upgrade its database to Postgres {BRANCHING_MIN_POSTGRES_MAJOR} or later from the Infrastructure page, then
      enable branching.
    </Alert>
  )
}

/** What enabling branching means: migrations, the price of preview branches, and PITR when the project lacks it. */
export function BranchingNotes({ projectRef, hasPitr }: { projectRef: string; hasPitr: boolean | undefined }) {
  return (
    <div className="stack-sm">
      <ul className="branching-notes">
        <li>
          Migrations in the <code>./supabase</code> directory of your repository run on every preview branch, and on production once they are merged.
        </li>
        <li>
          Preview branches are billed <strong>${BRANCH_PRICE_PER_HOUR} per hour</strong> until they are removed.
        </li>
      </ul>
      {hasPitr === false ? (
        <Alert
          tone="info"
          title="Point-in-time recovery is not enabled"
          live={false}
          actions={
            <Link className="btn btn-secondary btn-sm" to={pitrAddonUrl(projectRef)}>
              Enable PITR
            </Link>
          }
        >
          Merging a branch changes production. With the PITR add-on you can bring production back to any moment before a merge, and make branches from
          a past moment.
        </Alert>
      ) : null}
    </div>
  )
}
