// The official A2A JavaScript SDK as a client of an A2A agent, one call per run of this script; it prints what
// came back as the protocol's JSON (ProtoJSON, as on the wire), or {"error": ...} when the SDK threw.
//   node client.mjs <agent base URL> <user> <password> card
//   node client.mjs <agent base URL> <user> <password> send <text> [taskId|-] [contextId|-] [wait|now]
//   node client.mjs <agent base URL> <user> <password> stream <text>
//   node client.mjs <agent base URL> <user> <password> get <taskId>
//   node client.mjs <agent base URL> <user> <password> cancel <taskId>
import { randomUUID } from 'node:crypto';
import { AgentCard, Message, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory }
  from '@a2a-js/sdk/client';

const [base, user, password, command, ...args] = process.argv.slice(2);
const authorization = 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const fetchWithCredentials = (url, init = {}) =>
  fetch(url, { ...init, headers: { ...(init.headers ?? {}), Authorization: authorization } });

const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
  transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithCredentials })],
  cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWithCredentials }),
}));

function print(value) {
  process.stdout.write(JSON.stringify(value) + '\n');
}

function asJson(result) {
  return 'status' in result ? { task: Task.toJSON(result) } : { message: Message.toJSON(result) };
}

function message(text, taskId, contextId) {
  return {
    messageId: randomUUID(), role: 1 /* ROLE_USER */, parts: [{ content: { $case: 'text', value: text } }],
    taskId: taskId && taskId !== '-' ? taskId : '', contextId: contextId && contextId !== '-' ? contextId : '',
    metadata: undefined, extensions: [], referenceTaskIds: [],
  };
}

try {
  if (command === 'card') {
    print(AgentCard.toJSON(await new DefaultAgentCardResolver({ fetchImpl: fetchWithCredentials }).resolve(base)));
  } else {
    const client = await factory.createFromUrl(base);
    if (command === 'send') {
      const [text, taskId, contextId, wait] = args;
      print(asJson(await client.sendMessage({ tenant: '', message: message(text, taskId, contextId),
        configuration: { acceptedOutputModes: ['text/plain'], returnImmediately: wait === 'now' }, metadata: undefined })));
    } else if (command === 'stream') {
      const events = [];
      for await (const event of client.sendMessageStream({ tenant: '', message: message(args[0]),
        configuration: undefined, metadata: undefined })) {
        events.push(StreamResponse.toJSON({ payload: event.payload ?? event }));
      }
      print({ events });
    } else if (command === 'get') {
      print({ task: Task.toJSON(await client.getTask({ tenant: '', id: args[0] })) });
    } else if (command === 'cancel') {
      print({ task: Task.toJSON(await client.cancelTask({ tenant: '', id: args[0], metadata: undefined })) });
    } else {
      throw new Error('unknown command ' + command);
    }
  }
} catch (e) {
  print({ error: { name: e?.constructor?.name, message: String(e?.message ?? e) } });
}
