// openai-client.mjs uses the official openai npm client against gtmgate's
// OpenAI-compatible endpoint: base URL {GATEWAY_URL}/v1, tenant token as the
// API key. Prints one JSON summary line.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.env.GTMGATE_BASE_URL, apiKey: process.env.GTMGATE_TOKEN, maxRetries: 0 });

const models = await client.models.list();
const completion = await client.chat.completions.create({
  model: "gpt-test",
  messages: [{ role: "user", content: "Say hello" }],
  metadata: { kept: "yes" },
});
const stream = await client.chat.completions.create({
  model: "gpt-test",
  messages: [{ role: "user", content: "Count" }],
  stream: true,
});
const chunks = [];
for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta?.content ?? "");
let denied = null;
try {
  await client.chat.completions.create({ model: "forbidden-model", messages: [{ role: "user", content: "x" }] });
} catch (e) {
  denied = { status: e.status, message: e.message };
}
console.log(JSON.stringify({
  models: models.data.map((m) => m.id),
  content: completion.choices[0].message.content,
  usage: completion.usage,
  streamed: chunks.join(""),
  chunks: chunks.length,
  denied,
}));
