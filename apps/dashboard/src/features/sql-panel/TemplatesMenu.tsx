import { BookOpen, ChevronDown } from 'lucide-react'
import { Fragment } from 'react'
import { Button } from '../../components/ui/Button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/DropdownMenu'
import { SQL_TEMPLATES, TEMPLATE_GROUPS, type SqlTemplate } from './templates'

/** The templates picker: grouped items with a title and a one-line description. */
export function TemplatesMenu({ onPick }: { onPick: (template: SqlTemplate) => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" icon={<BookOpen size={14} aria-hidden="true" />}>
          Templates
          <ChevronDown size={14} aria-hidden="true" className="sql-panel-chevron" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="menu sql-panel-templates" aria-label="SQL templates">
        {TEMPLATE_GROUPS.map((group, index) => (
          <Fragment key={group}>
            {index > 0 ? <DropdownMenuSeparator /> : null}
            <DropdownMenuLabel>{group}</DropdownMenuLabel>
            {SQL_TEMPLATES.filter((t) => t.group === group).map((template) => (
              <DropdownMenuItem key={template.id} className="menu-item sql-panel-template" textValue={template.title} onSelect={() => onPick(template)}>
                <span className="sql-panel-template-text">
                  <span className="sql-panel-template-title">{template.title}</span>
                  <span className="sql-panel-template-description">{template.description}</span>
                </span>
              </DropdownMenuItem>
            ))}
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
