import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { NewPasswordFields, newPasswordProblems } from '../../components/ui/NewPasswordFields'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useChangePassword } from '../../data/profile/useChangePassword'

interface Problems {
  current?: string
  password?: string
  confirm?: string
  server?: string
}

/**
 * Labels are 'Current password', 'New password' and 'Confirm password': distinct enough
 * that a label lookup for one never matches another.
 */
export function ChangePasswordForm({ email, required }: { email: string; required: boolean }) {
  const navigate = useNavigate()
  const toast = useToast()
  const change = useChangePassword()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [problems, setProblems] = useState<Problems>({})

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found: Problems = { current: current ? undefined : 'Current password is required', ...newPasswordProblems(next, confirm) }
    setProblems(found)
    if (found.current || found.password || found.confirm) return
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('')
          setNext('')
          setConfirm('')
          toast.success('Password updated')
          if (required) void navigate('/organizations', { replace: true })
        },
        onError: (error) => setProblems({ server: errorMessage(error) }),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <Card
        title="Change password"
        description={required ? 'Enter the one-time password you signed in with, then your new password.' : undefined}
        footer={
          <Button type="submit" variant="primary" loading={change.isPending}>
            Update password
          </Button>
        }
      >
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={problems.current}
        />
        <NewPasswordFields
          label="New password"
          hint="At least 8 characters."
          password={next}
          confirm={confirm}
          onPasswordChange={setNext}
          onConfirmChange={setConfirm}
          problems={problems}
        />
        {problems.server ? (
          <Alert tone="danger" title="Could not update the password">
            {problems.server}
          </Alert>
        ) : null}
      </Card>
    </form>
  )
}
