import { COMPUTE_SIZE_NAMES, COMPUTE_SIZES, type ComputeSize } from '@stratum/contracts'

interface ComputeSizePickerProps {
  value: ComputeSize
  onChange: (size: ComputeSize) => void
}

/** Radio cards; each states the Postgres settings the size really applies. */
export function ComputeSizePicker({ value, onChange }: ComputeSizePickerProps) {
  return (
    <fieldset className="choice-fieldset">
      <legend className="field-label">Compute size</legend>
      <p className="field-hint">Sets Postgres memory and connection limits. It can be changed later with a restart.</p>
      <div className="choice-grid">
        {COMPUTE_SIZE_NAMES.map((name) => {
          const size = COMPUTE_SIZES[name]
          return (
            <label key={name} className="choice-card" data-checked={value === name}>
              <input
                type="radio"
                name="compute_size"
                value={name}
                checked={value === name}
                onChange={() => onChange(name)}
                aria-describedby={`size-${name}-settings`}
              />
              <span className="choice-card-text">
                <span className="choice-card-title">{size.label}</span>
                <span className="choice-card-detail" id={`size-${name}-settings`}>
                  max_connections {size.max_connections} · shared_buffers {size.shared_buffers} · work_mem{' '}
                  {size.work_mem}
                </span>
              </span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
