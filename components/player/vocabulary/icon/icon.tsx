"use client";

// Icon: the built-in icon set, drawn from lucide's icon nodes, imported one by one so the player bundle
// carries only the names the vocabulary promises, not lucide's whole set.

import { createElement } from "react";
import {
  ArrowDownRight,
  ArrowRight,
  ArrowUpRight,
  Book,
  Building,
  Calendar,
  ChartColumn,
  ChartLine,
  ChartPie,
  Check,
  CircleCheck,
  CircleDashed,
  CircleQuestionMark,
  Clock,
  Cloud,
  Code,
  Cpu,
  Database,
  DollarSign,
  Download,
  Eye,
  Flag,
  Globe,
  GraduationCap,
  Heart,
  Info,
  Key,
  Layers,
  Leaf,
  Lightbulb,
  Link,
  Lock,
  Mail,
  MapPin,
  MessageSquare,
  Package,
  Phone,
  Play,
  Puzzle,
  Quote,
  RefreshCw,
  Rocket,
  Search,
  Server,
  Settings,
  Shield,
  ShoppingCart,
  Sparkles,
  Star,
  Target,
  TrendingDown,
  TrendingUp,
  TriangleAlert,
  Trophy,
  Truck,
  Upload,
  User,
  Users,
  Wallet,
  X,
  Zap,
  type IconNode,
} from "lucide";
import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { iconSizes, textTones, type IconName, type IconSize, type TextTone } from "@/lib/contract/prop-values";

export const icons: Readonly<Record<IconName, IconNode>> = {
  "arrow-right": ArrowRight,
  "arrow-up-right": ArrowUpRight,
  "arrow-down-right": ArrowDownRight,
  "trending-up": TrendingUp,
  "trending-down": TrendingDown,
  check: Check,
  "check-circle": CircleCheck,
  x: X,
  "alert-triangle": TriangleAlert,
  info: Info,
  "help-circle": CircleQuestionMark,
  star: Star,
  heart: Heart,
  zap: Zap,
  rocket: Rocket,
  target: Target,
  flag: Flag,
  trophy: Trophy,
  lightbulb: Lightbulb,
  sparkles: Sparkles,
  users: Users,
  user: User,
  building: Building,
  globe: Globe,
  "map-pin": MapPin,
  calendar: Calendar,
  clock: Clock,
  mail: Mail,
  message: MessageSquare,
  phone: Phone,
  lock: Lock,
  shield: Shield,
  key: Key,
  settings: Settings,
  code: Code,
  database: Database,
  cloud: Cloud,
  server: Server,
  cpu: Cpu,
  layers: Layers,
  puzzle: Puzzle,
  "bar-chart": ChartColumn,
  "pie-chart": ChartPie,
  "line-chart": ChartLine,
  dollar: DollarSign,
  wallet: Wallet,
  "shopping-cart": ShoppingCart,
  package: Package,
  truck: Truck,
  leaf: Leaf,
  book: Book,
  "graduation-cap": GraduationCap,
  search: Search,
  eye: Eye,
  link: Link,
  download: Download,
  upload: Upload,
  refresh: RefreshCw,
  play: Play,
  quote: Quote,
};

// Near misses that models and people write often (lucide's newer names, obvious synonyms). Resolving
// them is kinder than a placeholder glyph; anything else still gets the visible fallback.
const aliases: Readonly<Record<string, IconName>> = {
  "circle-check": "check-circle",
  "triangle-alert": "alert-triangle",
  warning: "alert-triangle",
  "circle-help": "help-circle",
  help: "help-circle",
  "dollar-sign": "dollar",
  money: "dollar",
  "chart-column": "bar-chart",
  "bar-chart-2": "bar-chart",
  chart: "bar-chart",
  "chart-pie": "pie-chart",
  "chart-line": "line-chart",
  "message-square": "message",
  "message-circle": "message",
  "refresh-cw": "refresh",
  "building-2": "building",
  email: "mail",
  gear: "settings",
  team: "users",
  location: "map-pin",
  time: "clock",
  idea: "lightbulb",
  close: "x",
};

function resolveIcon(name: unknown): IconNode | undefined {
  if (typeof name !== "string") return undefined;
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
  // Own keys only: "constructor" or "toString" must not find Object.prototype's functions.
  if (Object.hasOwn(icons, key)) return icons[key as IconName];
  const alias = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
  return alias ? icons[alias] : undefined;
}

type IconProps = {
  name: string;
  size?: IconSize;
  tone?: TextTone;
};

export function Icon({ name, size, tone }: IconProps) {
  const node = resolveIcon(name);
  return (
    <LineIcon
      name={
        node
          ? name
              .trim()
              .toLowerCase()
              .replace(/[\s_]+/g, "-")
          : "circle-dashed"
      }
      node={node ?? CircleDashed}
      size={oneOf(size, iconSizes, "md")}
      tone={oneOf(tone, textTones, "primary")}
      missing={node ? undefined : (textOf(name) ?? "")}
    />
  );
}

// One line-icon drawing for the Icon component and the image placeholder.
// `data-icon` names the drawing (the PPTX export's alt text for the icon).
export function LineIcon({
  name,
  node,
  size,
  tone,
  missing,
}: {
  name: string;
  node: IconNode;
  size: string;
  tone: string;
  missing?: string;
}) {
  return (
    <svg
      className="dh-icon"
      data-icon={name}
      data-size={size}
      data-tone={tone}
      data-missing-icon={missing}
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {glyph(node)}
    </svg>
  );
}

function glyph(node: IconNode) {
  return node.map(([tag, attrs], index) => createElement(tag, { key: index, ...attrs }));
}
