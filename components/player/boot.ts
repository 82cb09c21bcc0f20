// The frame document's only script: read the config the server wrote and start the player.
import { mountPlayer } from "@deckhand/player";
import type { PlayerConfig } from "@/lib/contract/player";

const element = document.getElementById("dh-config");
const config = JSON.parse(element?.textContent ?? "{}") as PlayerConfig;
void mountPlayer(config);
