import pytest

from .harness import start_app


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db")
    yield app
    await app.stop()
