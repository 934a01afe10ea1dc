import { USER_AGENT_MAX } from '../auth/session-activity-recorder';

/**
 * A user agent as a person recognises it ('Firefox 133 on Windows', 'curl 8.5'), for the list of
 * one's own sessions. Browsers are told apart the way their own strings ask (Edge and Opera carry
 * 'Chrome', Chrome carries 'Safari'), so the more specific token is looked for first. Each pattern
 * is a fixed token and a run of digits: linear in the input, which is bounded before it gets here.
 */
const BROWSERS: ReadonlyArray<[name: string, token: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/],
  // Safari names its version apart from its token; every browser above also says 'Safari/'
  ['Safari', /\bVersion\/(\d+)/],
];

const SYSTEMS: ReadonlyArray<[name: string, token: RegExp]> = [
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Linux', /\bLinux\b/],
];

/** programs that call the API: their product token, as they send it ('curl/8.5.0' -> 'curl 8.5.0') */
const PROGRAM = /^([A-Za-z][\w.-]{0,40})\/([\w.]{1,20})/;


export function summariseUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const text = userAgent.slice(0, USER_AGENT_MAX);
  const system = SYSTEMS.find(([, token]) => token.test(text))?.[0];
  for (const [name, token] of BROWSERS) {
    if (name === 'Safari' && !text.includes('Safari/')) continue;
    const version = token.exec(text)?.[1];
    if (version) return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
  }
  const program = PROGRAM.exec(text);
  if (program && program[1] !== 'Mozilla') return `${program[1]} ${program[2]}`;
  return system ? `A browser on ${system}` : text.slice(0, 120);
}

/** a browser sends 'Mozilla/5.0 (...)'; anything else is a program using the API */
export const isBrowser = (userAgent: string | null | undefined): boolean => Boolean(userAgent?.startsWith('Mozilla/'));
