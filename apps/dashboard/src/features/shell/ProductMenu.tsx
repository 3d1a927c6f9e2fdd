import {
  Archive,
  Blocks,
  Braces,
  CalendarClock,
  ChartColumn,
  Cpu,
  Database,
  DatabaseZap,
  FileCode2,
  FileKey,
  GitBranch,
  History,
  Gauge,
  House,
  Inbox,
  KeyRound,
  Lightbulb,
  ListOrdered,
  ListTree,
  Lock,
  Mail,
  Megaphone,
  Puzzle,
  Radio,
  ScrollText,
  Server,
  Settings,
  ShieldCheck,
  Smartphone,
  ShieldHalf,
  SquareFunction,
  SquareTerminal,
  Table2,
  Timer,
  UserCog,
  Users,
  Webhook,
  Zap,
  type LucideIcon,
} from 'lucide-react'
import { NavLink } from 'react-router'

interface MenuLink {
  label: string
  /** Relative to /project/{ref}. */
  to: string
  icon: LucideIcon
  /** Active only on this exact path (its children have menu items of their own). */
  end?: boolean
}

interface MenuGroup {
  heading?: string
  links: MenuLink[]
}

const MENU: MenuGroup[] = [
  {
    links: [
      { label: 'Home', to: '', icon: House, end: true },
      { label: 'Table Editor', to: 'editor', icon: Table2 },
      { label: 'SQL Editor', to: 'sql', icon: SquareTerminal },
      { label: 'Storage', to: 'storage', icon: Archive },
      { label: 'Edge Functions', to: 'functions', icon: Braces },
      { label: 'Realtime', to: 'realtime/inspector', icon: Radio },
      { label: 'Reports', to: 'reports', icon: ChartColumn },
      { label: 'Advisors', to: 'advisors', icon: Lightbulb },
      { label: 'Logs', to: 'logs/explorer', icon: ScrollText },
      { label: 'Branches', to: 'branches', icon: GitBranch },
    ],
  },
  {
    heading: 'Database',
    links: [
      { label: 'Tables', to: 'database/tables', icon: Database },
      { label: 'Functions', to: 'database/functions', icon: SquareFunction },
      { label: 'Triggers', to: 'database/triggers', icon: Zap },
      { label: 'Enumerated Types', to: 'database/types', icon: ListOrdered },
      { label: 'Indexes', to: 'database/indexes', icon: ListTree },
      { label: 'Publications', to: 'database/publications', icon: Megaphone },
      { label: 'Roles', to: 'database/roles', icon: UserCog },
      { label: 'Policies', to: 'database/policies', icon: ShieldHalf },
      { label: 'Extensions', to: 'database/extensions', icon: Blocks },
      { label: 'Migrations', to: 'database/migrations', icon: FileCode2 },
    ],
  },
  {
    heading: 'Integrations',
    links: [
      { label: 'Database Webhooks', to: 'integrations/webhooks', icon: Webhook },
      { label: 'Cron', to: 'integrations/cron', icon: Timer },
    ],
  },
  {
    heading: 'Authentication',
    links: [
      { label: 'Users', to: 'auth/users', icon: Users },
      { label: 'Sign In / Providers', to: 'auth/providers', icon: ShieldCheck },
      { label: 'Multi-Factor', to: 'auth/mfa', icon: Smartphone },
      { label: 'Rate Limits', to: 'auth/rate-limits', icon: Gauge },
      { label: 'Emails', to: 'auth/smtp', icon: Mail },
      { label: 'Outbox', to: 'auth/outbox', icon: Inbox },
    ],
  },
  {
    heading: 'Backups',
    links: [
      { label: 'Scheduled', to: 'database/backups/scheduled', icon: CalendarClock },
      { label: 'Point in time', to: 'database/backups/pitr', icon: History },
    ],
  },
  {
    links: [
      { label: 'Add-ons', to: 'addons', icon: Puzzle },
      { label: 'Infrastructure', to: 'infrastructure', icon: Server },
    ],
  },
  {
    heading: 'Settings',
    links: [
      { label: 'General', to: 'settings/general', icon: Settings },
      { label: 'Compute and Disk', to: 'settings/compute-and-disk', icon: Cpu },
      { label: 'Database', to: 'settings/database', icon: DatabaseZap },
      { label: 'Vault', to: 'settings/vault', icon: Lock },
      { label: 'API', to: 'settings/api', icon: KeyRound },
      { label: 'JWT Keys', to: 'settings/jwt', icon: FileKey },
    ],
  },
]

interface ProductMenuProps {
  projectRef: string
  /** Called after a link is followed (closes the small-screen overlay). */
  onNavigate?: () => void
}

/** The project's left menu: plain links in a nav landmark, reachable with Tab. */
export function ProductMenu({ projectRef, onNavigate }: ProductMenuProps) {
  const base = `/project/${projectRef}`
  return (
    <nav className="product-menu" aria-label="Product menu">
      {MENU.map((group, index) => {
        const headingId = group.heading ? `product-menu-${group.heading.toLowerCase()}` : undefined
        return (
          <div className="product-menu-group" key={group.heading ?? index} role="group" aria-labelledby={headingId}>
            {group.heading ? (
              <div className="product-menu-heading" id={headingId}>
                {group.heading}
              </div>
            ) : null}
            <ul>
              {group.links.map(({ label, to, icon: Icon, end }) => (
                <li key={label}>
                  <NavLink
                    to={to ? `${base}/${to}` : base}
                    end={end}
                    className="product-menu-link"
                    onClick={onNavigate}
                  >
                    <Icon size={16} aria-hidden="true" />
                    <span>{label}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        )
      })}
    </nav>
  )
}
