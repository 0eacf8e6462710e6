// A remote A2A agent built with the official A2A JavaScript SDK's server (express), for AgentLoop to call as a tool:
//   node server.mjs <port> <bearer token>
// Its card is at /.well-known/agent-card.json, its JSON-RPC endpoint at /rpc; both want "Authorization: Bearer <token>".
// What it does with a message:
//   "weather <city>"  completes: "It is sunny in <city>."
//   "book <what>"     asks "For which date?" (TASK_STATE_INPUT_REQUIRED); the answer completes: "Booked <what> on <date>."
//   "fail"            fails the task: "The travel desk is closed."
//   "slow"            works for a minute (until cancelled)
import express from 'express';
import { randomUUID } from 'node:crypto';
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const [port, token] = process.argv.slice(2);
const card = {
  name: 'Travel desk', description: 'Books trips and tells the weather.',
  supportedInterfaces: [{ url: `http://127.0.0.1:${port}/rpc`, protocolBinding: 'JSONRPC', tenant: '',
    protocolVersion: A2A_PROTOCOL_VERSION }],
  provider: { organization: 'A2A tests', url: 'https://example.com' }, version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text'], defaultOutputModes: ['text'],
  skills: [{ id: 'book', name: 'Booking', description: 'books a trip on a date', tags: ['travel'], examples: [],
    inputModes: [], outputModes: [], securityRequirements: [] }],
  documentationUrl: '', signatures: [],
};

const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const agentMessage = (taskId, contextId, value) => ({ role: Role.ROLE_AGENT, messageId: randomUUID(), parts: [text(value)],
  taskId, contextId, extensions: [], metadata: {}, referenceTaskIds: [] });
const status = (taskId, contextId, state, words) => AgentEvent.statusUpdate({ taskId, contextId, metadata: {},
  status: { state, timestamp: new Date().toISOString(),
    message: words === undefined ? undefined : agentMessage(taskId, contextId, words) } });

class TravelDesk {
  cancelled = new Set();

  cancelTask = async (taskId) => { this.cancelled.add(taskId); };

  async execute(context, bus) {
    const { taskId, contextId, userMessage } = context;
    const said = userMessage.parts.map((part) => part.content?.$case === 'text' ? part.content.value : '').join(' ').trim();
    if (!context.task) {
      bus.publish(AgentEvent.task({ id: taskId, contextId, artifacts: [], history: [userMessage], metadata: {},
        status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined } }));
    }
    const asked = context.task?.status?.message?.parts?.[0]?.content?.value;
    const booking = context.task?.history?.[0]?.parts?.[0]?.content?.value ?? '';
    if (asked === 'For which date?') {
      this.complete(bus, taskId, contextId, `Booked ${booking.replace(/^book\s*/, '')} on ${said}.`);
    } else if (said.startsWith('weather')) {
      this.complete(bus, taskId, contextId, `It is sunny in ${said.replace(/^weather\s*/, '')}.`);
    } else if (said.startsWith('book')) {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, 'For which date?'));
    } else if (said === 'fail') {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED, 'The travel desk is closed.'));
    } else if (said === 'slow') {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, 'working slowly'));
      for (let i = 0; i < 600 && !this.cancelled.has(taskId); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      bus.publish(status(taskId, contextId, this.cancelled.has(taskId) ? TaskState.TASK_STATE_CANCELED
        : TaskState.TASK_STATE_COMPLETED, 'stopped'));
    } else {
      this.complete(bus, taskId, contextId, `You said: ${said}`);
    }
  }

  complete(bus, taskId, contextId, answer) {
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, append: false, lastChunk: true, metadata: undefined,
      artifact: { artifactId: randomUUID(), name: 'answer', description: '', parts: [text(answer)], metadata: undefined,
        extensions: [] } }));
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TravelDesk());
const app = express();
app.use((request, response, next) => request.get('Authorization') === `Bearer ${token}` ? next()
  : response.status(401).json({ error: 'unauthorized' }));
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
app.use('/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(Number(port), '127.0.0.1');
