import { X } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import type { ExplainPlan, PlanNode } from './explain'

export interface ExplainState {
  analyze: boolean
  sql: string
  status: 'running' | 'done' | 'error'
  plan?: ExplainPlan
  error?: string
}

const num = (value: number | undefined, digits = 2) =>
  value === undefined ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: digits })

function target(node: PlanNode): string | undefined {
  if (node['Relation Name']) return `on ${node.Schema ? `${node.Schema}.` : ''}${node['Relation Name']}${node.Alias && node.Alias !== node['Relation Name'] ? ` ${node.Alias}` : ''}`
  if (node['Function Name']) return `on ${node['Function Name']}()`
  if (node['Index Name']) return `using ${node['Index Name']}`
  return undefined
}

function PlanNodeView({ node, analyze }: { node: PlanNode; analyze: boolean }) {
  const on = target(node)
  const condition = node['Index Cond'] ?? node['Hash Cond'] ?? node.Filter
  return (
    <li className="plan-node">
      <div className="plan-node-row" data-testid="plan-node">
        <span className="plan-node-type">
          {node['Join Type'] ? `${node['Join Type']} ` : ''}
          {node['Node Type']}
        </span>
        {on ? <span className="plan-node-target">{on}</span> : null}
        <span className="plan-node-metrics">
          <span title="Estimated startup..total cost">
            cost {num(node['Startup Cost'])}..{num(node['Total Cost'])}
          </span>
          <span title="Estimated rows">est. rows {num(node['Plan Rows'], 0)}</span>
          {analyze && node['Actual Rows'] !== undefined ? (
            <>
              <span title="Actual rows (per loop)">actual rows {num(node['Actual Rows'], 0)}</span>
              <span title="Actual startup..total time per loop">
                time {num(node['Actual Startup Time'], 3)}..{num(node['Actual Total Time'], 3)} ms
              </span>
              {node['Actual Loops'] !== undefined && node['Actual Loops'] !== 1 ? <span>loops {num(node['Actual Loops'], 0)}</span> : null}
            </>
          ) : null}
        </span>
      </div>
      {condition ? <div className="plan-node-condition">{condition}</div> : null}
      {node.Plans?.length ? (
        <ul className="plan-children">
          {node.Plans.map((child, index) => (
            <PlanNodeView key={index} node={child} analyze={analyze} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}

/** The plan of EXPLAIN (FORMAT JSON): nested nodes with type, relation, estimated (and actual) rows, cost and time. */
export function ExplainView({ state, onClose }: { state: ExplainState; onClose: () => void }) {
  const title = state.analyze ? 'EXPLAIN ANALYZE' : 'EXPLAIN'
  return (
    <section className="results-panel explain-panel" aria-label="Query plan">
      <header className="results-header">
        <h2 className="results-title">Query plan · {title}</h2>
        {state.plan ? (
          <span className="results-meta">
            {state.plan['Planning Time'] !== undefined ? `Planning ${num(state.plan['Planning Time'], 3)} ms` : null}
            {state.plan['Execution Time'] !== undefined ? ` · Execution ${num(state.plan['Execution Time'], 3)} ms` : null}
          </span>
        ) : null}
        <IconButton size="sm" label="Close plan" icon={<X size={14} aria-hidden="true" />} onClick={onClose} />
      </header>
      {state.status === 'running' ? (
        <div className="results-message" role="status">
          <p className="results-running">
            <Spinner size={14} /> Explaining…
          </p>
        </div>
      ) : state.status === 'error' || !state.plan ? (
        <pre className="results-error" role="alert">
          ERROR: {state.error ?? 'The plan could not be read'}
        </pre>
      ) : (
        <div className="explain-body">
          <ul className="plan-tree">
            <PlanNodeView node={state.plan.Plan} analyze={state.analyze} />
          </ul>
        </div>
      )}
    </section>
  )
}
