import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TRole } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { roleNotFound } from '../commands/organization-access';
import { loadRoles } from './access-rows';

export class GetRoleQuery {
  constructor(readonly roleId: string) {}
}

/** One role as the lists show it (what a create or a rename answers); 404 role.not_found. */
@QueryHandler(GetRoleQuery)
export class GetRoleHandler implements IQueryHandler<GetRoleQuery, TRole> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ roleId }: GetRoleQuery): Promise<TRole> {
    const [role] = await loadRoles(this.db, { id: roleId });
    if (!role) throw roleNotFound();
    return role;
  }
}
