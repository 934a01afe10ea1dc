import { Controller, Delete, Get, HttpCode, Module, Post } from '@nestjs/common';
import { ZMessageAnswer } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Public } from '../../access/route-decorators';
import { controllersOfModule, describedRoutes } from './described-routes';
import { buildOpenApiDocument } from './openapi-document';
import { Documented } from './rest-description';

const ZThing = z.object({ id: z.string().max(36) });

/** the v1/v2 pattern of the features: routes on a shared base class, two controllers that only wrap */
abstract class ThingsRoutes {
  @Get('things/:id')
  @Documented({ summary: 'One thing', answer: ZThing })
  read() {}

  @Post('thing')
  @Documented({ summary: 'Create a thing', answer: ZThing, body: ZThing })
  create() {}

  @Public()
  @Post('things/ping')
  @HttpCode(200)
  @Documented({ summary: 'Ping', answer: ZMessageAnswer })
  ping() {}
}
@Controller('api/v1')
class ThingsV1Controller extends ThingsRoutes {}
@Controller(['api/v2', 'api'])
class ThingsV2Controller extends ThingsRoutes {
  @Delete('thing/:id')
  @Documented({ summary: 'Delete a thing (ours, v2 only)', answer: ZMessageAnswer })
  remove() {}
}
/** outside the API's prefixes: health and the documents are no REST route */
@Controller()
class HealthController {
  @Get('healthz')
  alive() {}
}

describe('the routes the controllers declare', () => {
  it('are grouped across their prefixes, with status, public flag and the one description', () => {
    const routes = describedRoutes([ThingsV1Controller, ThingsV2Controller, HealthController]);
    expect(routes.map(({ method, path, prefixes, status, public: isPublic, description }) => ({ method, path, prefixes, status, isPublic, summary: description.summary }))).toEqual([
      { method: 'get', path: 'things/{id}', prefixes: ['/api/v1', '/api/v2', '/api'], status: 200, isPublic: false, summary: 'One thing' },
      { method: 'post', path: 'thing', prefixes: ['/api/v1', '/api/v2', '/api'], status: 201, isPublic: false, summary: 'Create a thing' },
      { method: 'post', path: 'things/ping', prefixes: ['/api/v1', '/api/v2', '/api'], status: 200, isPublic: true, summary: 'Ping' },
      { method: 'delete', path: 'thing/{id}', prefixes: ['/api/v2', '/api'], status: 200, isPublic: false, summary: 'Delete a thing (ours, v2 only)' },
    ]);
  });

  it('refuse a route without a description, naming it', () => {
    @Controller('api/v2')
    class Undocumented {
      @Get('secret/:id')
      read() {}
    }
    expect(() => describedRoutes([ThingsV2Controller, Undocumented])).toThrow(/GET secret\/\{id\} \(Undocumented\.read\) has no @Documented/);
  });

  it('refuse a route two handlers describe differently', () => {
    @Controller('api/v1')
    class Other {
      @Get('things/:id')
      @Documented({ summary: 'Another thing', answer: ZThing })
      read() {}
    }
    expect(() => describedRoutes([ThingsV2Controller, Other])).toThrow(/GET things\/\{id\} .* is described twice, differently/);
  });

  it('are found through the module declarations, dynamic modules and imports included', () => {
    @Module({ controllers: [ThingsV1Controller] })
    class ThingsModule {}
    const root = { module: class Root {}, imports: [ThingsModule, { module: class Dynamic {}, controllers: [ThingsV2Controller, ThingsV1Controller] }], controllers: [HealthController] };
    expect(controllersOfModule(root)).toEqual([HealthController, ThingsV1Controller, ThingsV2Controller]);
  });

  it('make a document with v1 bare, v2 wrapped, public routes without security and bodies as input schemas', () => {
    const document = buildOpenApiDocument(describedRoutes([ThingsV1Controller, ThingsV2Controller]));
    const answer = (path: string, method: string) => document.paths[path][method] as { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }>; security?: unknown[] };
    expect(Object.keys(answer('/api/v1/things/{id}', 'get').responses['200'].content['application/json'].schema.properties)).toEqual(['id']);
    expect(Object.keys(answer('/api/v2/things/{id}', 'get').responses['200'].content['application/json'].schema.properties)).toEqual(['data']);
    expect(answer('/api/things/ping', 'post').security).toEqual([]);
    expect(answer('/api/v2/thing', 'post').responses['201']).toBeDefined();
    expect(document.paths['/api/v1/thing/{id}']).toBeUndefined();
  });
});
