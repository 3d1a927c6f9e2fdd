import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { errorMessage } from '../../data/api'
import { JWT_KEY_TEXTS } from './texts'

/** What the server generates: the asymmetric algorithms (a shared secret other than the legacy one is not offered). */
const CHOICES = [
  { algorithm: 'ES256', name: 'ECC (P-256)', detail: 'ES256. Small keys and signatures, fast to verify. Recommended.' },
  { algorithm: 'RS256', name: 'RSA', detail: 'RS256, 2048 bit. For verifiers that support RSA only.' },
] as const
export type StandbyAlgorithm = (typeof CHOICES)[number]['algorithm']

interface CreateStandbyKeyDialogProps {
  open: boolean
  pending: boolean
  error: unknown
  onClose: () => void
  onCreate: (algorithm: StandbyAlgorithm) => void
}

/** A new key in standby: published in the JWKS at once, signing nothing until a rotation puts it in use. */
export function CreateStandbyKeyDialog({ open, pending, error, onClose, onCreate }: CreateStandbyKeyDialogProps) {
  const [algorithm, setAlgorithm] = useState<StandbyAlgorithm>('ES256')
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending || next ? undefined : onClose())}
      title="Create standby key"
      description="The platform generates the key pair and keeps the private key. The public key is published in the JWKS right away; the key signs nothing until you rotate to it."
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" loading={pending} onClick={() => onCreate(algorithm)}>
            Create standby key
          </Button>
        </>
      }
    >
      <fieldset className="jwt-algorithms">
        <legend className="field-label">Algorithm</legend>
        {CHOICES.map((choice) => (
          <label key={choice.algorithm} className={`jwt-algorithm${algorithm === choice.algorithm ? ' jwt-algorithm-selected' : ''}`}>
            <input
              type="radio"
              name="signing-key-algorithm"
              value={choice.algorithm}
              checked={algorithm === choice.algorithm}
              onChange={() => setAlgorithm(choice.algorithm)}
            />
            <span className="jwt-algorithm-text">
              <span className="jwt-algorithm-name">{choice.name}</span>
              <span className="muted">{choice.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <p className="field-hint">
        Shared-secret (HS256) keys are not offered: the legacy JWT secret stays this project&apos;s only shared secret, and keeps verifying the anon and
        service_role keys.
      </p>
      {error ? (
        <Alert tone="danger" title={JWT_KEY_TEXTS.createFailed}>
          {errorMessage(error)}
        </Alert>
      ) : null}
    </Dialog>
  )
}
