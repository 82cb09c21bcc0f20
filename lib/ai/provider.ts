import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { setting } from "@/lib/core/config";

// The model behind generate and edit, chosen by configuration: OPENAI_API_KEY selects OpenAI (or, with
// OPENAI_BASE_URL, any OpenAI-compatible server such as Ollama or vLLM) and AI_MODEL the model; with no
// key the offline generator and editor serve instead (null here).

export function configuredLanguageModel(): LanguageModel | null {
  const apiKey = setting("OPENAI_API_KEY");
  if (!apiKey) return null;
  const baseURL = setting("OPENAI_BASE_URL");
  const provider = createOpenAI({ apiKey, baseURL });
  const modelId = setting("AI_MODEL");
  // Compatible servers implement Chat Completions; OpenAI itself gets the Responses API.
  return baseURL ? provider.chat(modelId) : provider(modelId);
}

export function aiTimeoutMs(): number {
  return setting("AI_TIMEOUT_MS");
}
