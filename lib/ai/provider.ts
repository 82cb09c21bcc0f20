import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";

// The model behind generate and edit, chosen by configuration: OPENAI_API_KEY selects OpenAI (or, with
// OPENAI_BASE_URL, any OpenAI-compatible server such as Ollama or vLLM) and AI_MODEL the model; with no
// key the offline generator and editor serve instead (null here).

export const DEFAULT_MODEL = "gpt-4.1-mini";

export function configuredLanguageModel(): LanguageModel | null {
  const apiKey = process.env.OPENAI_API_KEY;
  if (!apiKey) return null;
  const baseURL = process.env.OPENAI_BASE_URL || undefined;
  const provider = createOpenAI({ apiKey, baseURL });
  const modelId = process.env.AI_MODEL || DEFAULT_MODEL;
  // Compatible servers implement Chat Completions; OpenAI itself gets the Responses API.
  return baseURL ? provider.chat(modelId) : provider(modelId);
}

export function aiTimeoutMs(): number {
  return Number(process.env.AI_TIMEOUT_MS || 170_000);
}
