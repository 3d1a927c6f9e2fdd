import './query-widget.css'

/** The Table / Chart switch. */
export function ViewSwitch({ view, onChange }: { view: 'table' | 'chart'; onChange: (view: 'table' | 'chart') => void }) {
  return (
    <div className="qw-view-switch" role="radiogroup" aria-label="Result view">
      {(['table', 'chart'] as const).map((option) => (
        <button key={option} type="button" role="radio" aria-checked={view === option} className="qw-view-option" onClick={() => onChange(option)}>
          {option === 'table' ? 'Table' : 'Chart'}
        </button>
      ))}
    </div>
  )
}
