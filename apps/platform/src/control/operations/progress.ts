import type { OperationProgress, OperationStatusName } from '@stratum/contracts'
import { definitionFor } from './definitions.js'
import { cancellableAfter, stepsDone } from './operation.js'
import type { OperationRow } from './operation-store.js'

function statusOf(op: OperationRow): OperationStatusName {
  if (op.status !== 'running') return op.status
  if (op.cancel_requested_at) return 'cancelling'
  return op.started_at ? 'running' : 'queued'
}

/** The recorded target of a resize or an upgrade (their params, set when the operation was accepted). */
function targetOf(op: OperationRow): OperationProgress['target'] {
  if (op.kind === 'resize' && typeof op.params.compute_size === 'string') return { compute_size: op.params.compute_size }
  if (op.kind === 'upgrade' && typeof op.params.target_major === 'string') return { postgres_major: op.params.target_major }
  return null
}

/** Any operation's progress, in the one shape the dashboard reads (contracts/operations.ts). */
export function toOperationProgress(op: OperationRow): OperationProgress {
  const definition = definitionFor(op.kind, op.params)
  const done = stepsDone(definition, op.step)
  const running = op.status === 'running'
  return {
    id: op.id,
    kind: op.kind,
    status: statusOf(op),
    current_step: running ? (op.current_step ?? definition.steps[done]?.name ?? null) : null,
    steps_done: done,
    steps_total: definition.steps.length,
    error: op.error,
    // As the runner decides it (runner.ts cancel): a running step counts as done.
    cancellable: running && !op.cancel_requested_at && cancellableAfter(definition, done + (op.current_step ? 1 : 0)),
    target: targetOf(op),
    initiated_at: op.initiated_at.toISOString(),
    updated_at: op.updated_at.toISOString(),
    finished_at: op.finished_at?.toISOString() ?? null,
  }
}
