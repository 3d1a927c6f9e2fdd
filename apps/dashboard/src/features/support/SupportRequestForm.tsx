import { SUPPORT_CATEGORIES, type SupportRequest } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import { useProjects } from '../../data/projects/useProjects'
import { useCreateSupportRequest, type SupportCategoryName } from '../../data/support/useCreateSupportRequest'
import { humanize } from '../../lib/format'

interface Initial {
  category: string | null
  ref: string | null
  subject: string | null
  message: string | null
}

interface SupportRequestFormProps {
  /** From the query string, e.g. ?category=Database_unresponsive&ref=…&subject=…&message=… */
  initial: Initial
  onSent: (request: SupportRequest) => void
}

function isCategory(value: string | null): value is SupportCategoryName {
  return (SUPPORT_CATEGORIES as readonly string[]).includes(value ?? '')
}

export function SupportRequestForm({ initial, onSent }: SupportRequestFormProps) {
  const projects = useProjects()
  const create = useCreateSupportRequest()
  const [category, setCategory] = useState<SupportCategoryName>(isCategory(initial.category) ? initial.category : 'Problem')
  const [projectRef, setProjectRef] = useState(initial.ref ?? '')
  const [subject, setSubject] = useState(initial.subject ?? '')
  const [message, setMessage] = useState(initial.message ?? '')
  const [problems, setProblems] = useState<{ subject?: string; message?: string }>({})

  const knownRef = projects.data?.some((project) => project.ref === projectRef)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found = {
      subject: subject.trim() ? undefined : 'Subject cannot be empty',
      message: message.trim() ? undefined : 'Message cannot be empty',
    }
    setProblems(found)
    if (found.subject || found.message) return
    create.mutate(
      { category, project_ref: projectRef || null, subject: subject.trim(), message: message.trim() },
      { onSuccess: onSent },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New support request">
      <Card
        footer={
          <Button type="submit" variant="primary" loading={create.isPending}>
            Send request
          </Button>
        }
      >
        <div className="support-row">
          <SelectField label="Category" name="category" value={category} onChange={(event) => setCategory(event.target.value as SupportCategoryName)}>
            {SUPPORT_CATEGORIES.map((option) => (
              <option key={option} value={option}>
                {humanize(option)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Project" name="project_ref" value={projectRef} onChange={(event) => setProjectRef(event.target.value)}>
            <option value="">No specific project</option>
            {/* Keep a ref from the link even before (or if never) the project list confirms it. */}
            {projectRef && !knownRef ? <option value={projectRef}>{projectRef}</option> : null}
            {projects.data?.map((project) => (
              <option key={project.ref} value={project.ref}>
                {project.name} ({project.ref})
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label="Subject"
          name="subject"
          maxLength={200}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          error={problems.subject}
        />
        <TextAreaField
          label="Message"
          name="message"
          rows={7}
          maxLength={10000}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          error={problems.message}
        />
        {create.isError ? (
          <Alert tone="danger" title="Could not send the request">
            {errorMessage(create.error)}
          </Alert>
        ) : null}
      </Card>
    </form>
  )
}
