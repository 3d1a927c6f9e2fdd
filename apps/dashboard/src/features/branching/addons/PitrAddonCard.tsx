import { PITR_VARIANTS, type PitrVariant, type ProjectAddons } from '@stratum/contracts'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/Alert'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { Dialog } from '../../../components/ui/Dialog'
import { useToast } from '../../../components/ui/Toast'
import { availablePitrVariants, selectedPitr } from '../../../data/addons/useProjectAddons'
import { useApplyPitrAddon, useRemoveAddon } from '../../../data/addons/useUpdateAddon'
import { errorMessage } from '../../../data/api'
import { billingUpgradeUrl } from '../links'

/** Spec api-docs-assistant-sql-panel §6: who cannot amend subscriptions sees the button disabled with this tooltip. */
export const AMEND_SUBSCRIPTIONS_TOOLTIP = 'You need additional permissions to amend subscriptions'
export const PRO_PLAN_REQUIRED = 'Point-in-time recovery is available on the Pro plan'

const isPitrVariant = (id: string): id is PitrVariant => (PITR_VARIANTS as readonly string[]).includes(id)

interface PitrAddonCardProps {
  projectRef: string
  orgSlug: string
  addons: ProjectAddons
  freePlan: boolean
  canAmend: boolean
  /** Opened from a link with ?panel=pitr: the card scrolls into view, outlined. */
  highlighted: boolean
}

/** The PITR add-on: its retention variants and prices, and Enable, Change or Remove. */
export function PitrAddonCard({ projectRef, orgSlug, addons, freePlan, canAmend, highlighted }: PitrAddonCardProps) {
  const toast = useToast()
  const current = selectedPitr(addons)
  const variants = availablePitrVariants(addons)
  // Until the user picks one, the choice follows the project's variant (it changes when the add-on list is read again).
  const [picked, setPicked] = useState<string | null>(null)
  const choice = picked ?? current?.id ?? variants[0]?.id ?? 'pitr_7'
  const [removeOpen, setRemoveOpen] = useState(false)
  const apply = useApplyPitrAddon()
  const remove = useRemoveAddon()
  const cardRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!highlighted) return
    cardRef.current?.scrollIntoView({ block: 'start' })
  }, [highlighted])

  const blocked = freePlan || !canAmend
  const reason = !canAmend ? AMEND_SUBSCRIPTIONS_TOOLTIP : PRO_PLAN_REQUIRED

  const save = () => {
    if (!isPitrVariant(choice)) return
    // mutateAsync, not mutate's callbacks: turning PITR on shows the restart screen, which unmounts this card.
    apply.mutateAsync({ projectRef, variant: choice, turnsOn: current === undefined }).then(
      () => {
        setPicked(null)
        toast.success(current ? 'Point-in-time recovery retention changed' : 'Point-in-time recovery enabled: the project restarts with WAL archiving')
      },
      (error: unknown) => toast.error(`Failed to update point-in-time recovery: ${errorMessage(error)}`),
    )
  }
  const confirmRemove = () => {
    if (!current) return
    remove.mutate(
      { projectRef, variant: current.id },
      {
        onSuccess: () => {
          toast.success('Point-in-time recovery removed')
          setRemoveOpen(false)
        },
        onError: (error) => toast.error(`Failed to remove point-in-time recovery: ${errorMessage(error)}`),
      },
    )
  }

  return (
    <div ref={cardRef} className={highlighted ? 'addon-card-highlight' : undefined} id="pitr">
      <Card
        title="Point in time recovery"
        description="The WAL of this project is archived continuously: restore it, or make a branch, from any moment of the retention window."
        actions={current ? <Badge tone="success">{current.name} enabled</Badge> : <Badge tone="neutral">Not enabled</Badge>}
        footer={
          <div className="row">
            {current ? (
              <Button variant="danger" disabled={blocked} disabledReason={reason} loading={remove.isPending} onClick={() => setRemoveOpen(true)}>
                Remove
              </Button>
            ) : null}
            <span className="spacer" />
            <Button variant="primary" disabled={blocked || choice === current?.id} disabledReason={blocked ? reason : undefined} loading={apply.isPending} onClick={save}>
              {current ? 'Change' : 'Enable'}
            </Button>
          </div>
        }
      >
        <div className="stack">
          {freePlan ? (
            <Alert
              tone="warning"
              title={PRO_PLAN_REQUIRED}
              live={false}
              actions={
                <Link className="btn btn-primary btn-sm" to={billingUpgradeUrl(orgSlug, 'pitrAddon')}>
                  Upgrade to Pro
                </Link>
              }
            >
              Upgrade the organization to the Pro plan to add point-in-time recovery to its projects.
            </Alert>
          ) : null}
          <fieldset className="addon-variants">
            <legend className="field-label">Retention</legend>
            {variants.map((variant) => (
              <label key={variant.id} className={`addon-variant${choice === variant.id ? ' addon-variant-selected' : ''}`}>
                <input type="radio" name="pitr-variant" value={variant.id} checked={choice === variant.id} disabled={blocked} onChange={() => setPicked(variant.id)} />
                <span className="addon-variant-name">{variant.name}</span>
                <span className="addon-variant-price">{variant.price.description}</span>
                {current?.id === variant.id ? <Badge tone="success">Current</Badge> : null}
              </label>
            ))}
          </fieldset>
          {!current ? <p className="field-hint">Enabling restarts the project once, to turn WAL archiving on (it is offline for a few seconds).</p> : null}
        </div>
      </Card>
      <Dialog
        open={removeOpen}
        onOpenChange={(next) => (remove.isPending && !next ? undefined : setRemoveOpen(next))}
        title="Remove point-in-time recovery"
        size="sm"
        footer={
          <>
            <Button onClick={() => setRemoveOpen(false)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="danger" loading={remove.isPending} onClick={confirmRemove}>
              Remove add-on
            </Button>
          </>
        }
      >
        <p>The archived WAL is no longer kept: the project can then only be restored from its scheduled backups.</p>
      </Dialog>
    </div>
  )
}
