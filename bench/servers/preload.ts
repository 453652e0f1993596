/**
 * Loaded with `--import` into our real server process (src/main.ts, unchanged): answers the bench's profiling
 * commands, and turns "stop" or the bench going away into SIGTERM, which main.ts handles (flush logs, close).
 */
import { answerCommands } from "./child.ts";

answerCommands(() => process.kill(process.pid, "SIGTERM"));
