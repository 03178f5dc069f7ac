# Two stages: build a wheel-installed virtualenv, then copy it into a slim runtime image.
FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY storage ./storage
# With the PostgreSQL driver: one image runs on SQLite (the default) or DATABASE_URL.
RUN /venv/bin/pip install --no-cache-dir '.[postgresql]'

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 bot && mkdir /data && chown bot:bot /data
COPY --from=build /venv /venv
ENV PATH="/venv/bin:$PATH" \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3
USER 10001:10001
WORKDIR /home/bot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
