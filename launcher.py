"""Running the bot: on Discord with a token, else on the local table; stopped by a signal;
start-up problems told in one sentence, not a traceback."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import discord

from data import open_storage
from data.model import StorageError
from local_table import LocalTableError, run_local_table
from settings import Settings

# What ends the bot in a terminal: Ctrl+C, `kill`, and the terminal closing (not on Windows).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

log = logging.getLogger("game_table")


class BotFactory(Protocol):
    """What builds the bot (`bot.create_bot`): from `settings`, on `database` if given."""

    def __call__(
        self, database: str | Path | None = None, settings: Settings | None = None
    ) -> discord.Client: ...


async def run_discord(settings: Settings, create_bot: BotFactory) -> None:
    """The bot on Discord until it is stopped."""
    # Say what is wrong with the database before connecting, not after a login.
    await (await open_storage(settings.database)).close()
    bot = create_bot(settings=settings)
    async with bot:
        await bot.start(settings.token or "")


async def until_signalled(work: Coroutine[Any, Any, None]) -> None:
    """Run `work`; SIGINT, SIGTERM or SIGHUP cancels it, so it closes what it opened and
    returns normally. Later signals do not interrupt that clean-up."""
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    caught: list[int] = []

    def stop(number: int) -> None:
        if not caught:
            caught.append(number)
            task.cancel()

    installed = []
    for number in STOP_SIGNALS:
        try:
            loop.add_signal_handler(number, stop, number)
        except NotImplementedError:  # Windows: Ctrl+C still cancels through asyncio.run
            continue
        installed.append(number)
    try:
        await task
    except asyncio.CancelledError:
        if not caught:
            raise
        log.info("Stopped by signal %s", signal.Signals(caught[0]).name)
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


def main(argv: list[str] | None, create_bot: BotFactory) -> int:
    """`python bot.py [--local]`: the exit code."""
    parser = argparse.ArgumentParser(description="The game-table Discord bot.")
    parser.add_argument("--local", action="store_true", help="play on the local table")
    args = parser.parse_args(argv)
    settings = Settings.load()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    local = args.local or settings.token is None
    if local and not args.local:
        print("No DISCORD_TOKEN is set, so the bot opens the local table instead.")
    if local:
        work = run_local_table(settings, lambda table: create_bot(settings=table))
    else:
        work = run_discord(settings, create_bot)
    try:
        asyncio.run(until_signalled(work))
    except KeyboardInterrupt:  # where signals cannot be handled in the loop (Windows)
        pass
    except LocalTableError as error:
        print(error, file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN — copy the bot token again from the Developer "
            "Portal (Bot → Reset Token) into .env.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused an intent this bot asked for — check the Bot page of the Developer Portal.",
            file=sys.stderr,
        )
        return 1
    except StorageError as error:
        print(error, file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(f"Cannot reach Discord ({error}) — check this machine's internet connection.", file=sys.stderr)
        return 1
    return 0
