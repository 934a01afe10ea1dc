import { Inject, PayloadTooLargeException } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  IMPORT_MAX_ROWS,
  IMPORT_TARGET_FIELDS,
  ZCreateAccountInput,
  type TCreateAccountCommandInput,
  type TImportAccountsCommandInput,
  type TImportAccountsResult,
  type TFieldRule,
  type TImportRowResult,
} from '@rollcall/contracts';
import { DomainError, emailReservation, usernameReservation } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { mapError } from '../../../platform/errors/api-error';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { READ_DB } from '../../../platform/tokens';
import { comparePositions, START, type Position } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { CreateAccountCommand } from './create-account.handler';

export class ImportAccountsCommand {
  constructor(
    readonly input: TImportAccountsCommandInput,
    readonly context: RequestContext,
  ) {}
}

/** enough parallel creations to fill the SQLite group commit and the PostgreSQL pool, few enough to bound memory */
const CONCURRENCY = 8;

/** row: 1-based among the request's rows; line: the file's line, when the client sent it */
type Validated = { row: number; line?: number } & ({ input: TCreateAccountCommandInput } | Refused);
/** a refused row's messages by field, and each message's rule (as an error answer's `error.rules`, to translate by) */
type Refused = { errors: Record<string, string[]>; rules: TFieldRule[] };

/**
 * Bulk creation from a mapped CSV: every row is one ordinary account creation (CreateAccountHandler,
 * with its policy check and username/e-mail reservations), so a row is either wholly created or
 * reported with its field errors; a bad row never stops the others.
 */
@CommandHandler(ImportAccountsCommand)
export class ImportAccountsHandler implements ICommandHandler<ImportAccountsCommand, CommandOutcome<TImportAccountsResult>> {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async execute({ input, context }: ImportAccountsCommand): Promise<CommandOutcome<TImportAccountsResult>> {
    if (input.csv.length > IMPORT_MAX_ROWS) {
      throw new PayloadTooLargeException(`At most ${IMPORT_MAX_ROWS} rows per request; send the file in chunks`);
    }
    const policyId = input.policyId || null;
    // checked once here, else every row would report the same missing policy
    if (policyId && !(await this.db.selectFrom('password_policies_v2').select('id').where('id', '=', policyId).executeTakeFirst())) {
      throw new DomainError('policy.not_found', 'This password policy does not exist', 'policyId');
    }
    const validated = markDuplicates(input.csv.map((row, index) => ({ ...validateRow(row, policyId), row: index + 1, ...(input.lines ? { line: input.lines[index] } : {}) })));
    await this.reportTakenUsernames(validated, input.csv);
    const results: TImportRowResult[] = new Array(validated.length);
    let position: Position = START;
    let next = 0;
    const worker = async () => {
      while (next < validated.length) {
        const item = validated[next];
        next += 1;
        if ('errors' in item) {
          results[item.row - 1] = { ...numbers(item), status: 'failed', errors: item.errors, rules: item.rules };
          continue;
        }
        try {
          const outcome = await this.commandBus.execute<CreateAccountCommand, CommandOutcome<{ id: string }>>(new CreateAccountCommand(item.input, context));
          if (comparePositions(outcome.position, position) > 0) position = outcome.position;
          results[item.row - 1] = { ...numbers(item), status: 'created', id: outcome.value.id };
        } catch (error) {
          const { body } = mapError(error);
          results[item.row - 1] = body.error.fields
            ? { ...numbers(item), status: 'failed', errors: body.error.fields, rules: body.error.rules ?? [] }
            : { ...numbers(item), status: 'failed', errors: { _: [body.error.message] }, rules: [{ field: '_', code: body.error.code, message: body.error.message }] };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, validated.length) }, worker));
    const created = results.filter((r) => r.status === 'created').length;
    return { value: { created, failed: results.length - created, rows: results }, position };
  }

  /**
   * A row refused for other reasons never reaches the creation that would find its username taken,
   * so the report would leave that out and the next attempt fail again on it: such rows are looked
   * up in the accounts read model (which the reservation keeps in step) and told at once.
   */
  private async reportTakenUsernames(validated: Validated[], rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    const failed = validated.filter((item): item is Validated & Refused => 'errors' in item);
    const wanted = new Map<string, Array<Validated & Refused>>();
    for (const item of failed) {
      const username = text(rows[item.row - 1]?.username).trim();
      // only what could be a username at all: the length rule is the contract's
      if (!username || username.length > 255) continue;
      const key = usernameReservation(username).value;
      wanted.set(key, [...(wanted.get(key) ?? []), item]);
    }
    if (!wanted.size) return;
    const taken = await this.db.selectFrom('accounts_v2').select('username_lower').where('username_lower', 'in', [...wanted.keys()]).execute();
    for (const { username_lower } of taken) {
      for (const item of wanted.get(username_lower) ?? []) {
        const messages = item.errors.username ?? [];
        if (messages.includes(USERNAME_TAKEN)) continue;
        item.errors.username = [...messages, USERNAME_TAKEN];
        // after the field's other rules, as `errors` has them
        const last = item.rules.map((rule) => rule.field).lastIndexOf('username');
        item.rules.splice(last === -1 ? item.rules.length : last + 1, 0, { field: 'username', code: 'account.username_taken', message: USERNAME_TAKEN });
      }
    }
  }
}

/** the message a taken username gets on creation (platform/errors RESERVATION_ERRORS), so the report reads alike */
const USERNAME_TAKEN = 'This username is already taken';

const numbers = (item: Validated) => (item.line === undefined ? { row: item.row } : { row: item.row, line: item.line });

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value));

/** A row as the create-account model: no password means an account awaiting activation, as `no_password` on create. */
function validateRow(row: Record<string, unknown>, policyId: string | null): { input: TCreateAccountCommandInput } | Refused {
  const unknown = Object.keys(row).filter((key) => !(IMPORT_TARGET_FIELDS as readonly string[]).includes(key));
  if (unknown.length) {
    const message = `Unknown field(s): ${unknown.join(', ')}`;
    return { errors: { _: [message] }, rules: [{ field: '_', code: 'unknown_fields', params: { keys: unknown.join(', ') }, message }] };
  }
  const password = text(row.password);
  const parsed = ZCreateAccountInput.safeParse({
    first_name: text(row.first_name),
    last_name: text(row.last_name),
    email: text(row.email),
    username: text(row.username),
    password: password || null,
    no_password: !password,
    // a row without a password keeps the import's policy: its first password must meet it
    policy: Boolean(policyId),
    policy_id: policyId,
  });
  if (parsed.success) return { input: parsed.data };
  const { fields, rules } = mapError(parsed.error).body.error;
  return { errors: fields ?? {}, rules: rules ?? [] };
}

/**
 * A later row repeating a username or e-mail of an earlier valid row fails, naming that row: its line
 * in the file when the client sent `lines` (the console does, so chunks keep the file's numbers),
 * else its number among this request's rows. The earlier one is created.
 */
function markDuplicates(rows: Validated[]): Validated[] {
  const usernames = new Map<string, Validated>();
  const emails = new Map<string, Validated>();
  const where = (earlier: Validated) => (earlier.line === undefined ? `row ${earlier.row}` : `line ${earlier.line}`);
  // the rule's parameter: the earlier row's line in the file, else its number among the request's rows
  const place = (earlier: Validated): Record<string, number> => (earlier.line === undefined ? { row: earlier.row } : { line: earlier.line });
  return rows.map((item) => {
    if ('errors' in item) return item;
    const errors: Record<string, string[]> = {};
    const rules: TFieldRule[] = [];
    const username = usernameReservation(item.input.username).value;
    const email = emailReservation(item.input.email).value;
    const sameUsername = usernames.get(username);
    const sameEmail = emails.get(email);
    if (sameUsername) {
      errors.username = [`This username appears more than once in the file: same username as ${where(sameUsername)}`];
      rules.push({ field: 'username', code: 'duplicate_in_file', params: { label: 'Username', ...place(sameUsername) }, message: errors.username[0] });
    }
    if (sameEmail) {
      errors.email = [`This e-mail address appears more than once in the file: same e-mail address as ${where(sameEmail)}`];
      rules.push({ field: 'email', code: 'duplicate_in_file', params: { label: 'E-mail', ...place(sameEmail) }, message: errors.email[0] });
    }
    if (Object.keys(errors).length) return { ...numbers(item), errors, rules };
    usernames.set(username, item);
    emails.set(email, item);
    return item;
  });
}
