# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""AI and ML providers: OpenAI, Anthropic, Hugging Face, Cohere, Groq, Replicate and peers."""

from __future__ import annotations

from ctxaction.secure.rule import Rule, keyed, prefixed

RULES: list[Rule] = [
    prefixed(
        "openai-api-key", "OpenAI API key",
        r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,74}T3BlbkFJ[A-Za-z0-9_\-]{20,74}"
        r"|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})",
        ("T3BlbkFJ",), entropy=3.5,
        tp=('OPENAI_API_KEY="sk-proj-<<b64url:58>>T3BlbkFJ<<b64url:58>>"',
            "openai.api_key = 'sk-<<alnum:20>>T3BlbkFJ<<alnum:20>>'"),
        fp=("sk-proj-xxxxxxxxxxxxxxxxxxxxT3BlbkFJxxxxxxxxxxxxxxxxxxxx",),
        anchored=False,
    ),
    prefixed(
        "openai-project-key", "OpenAI project/service-account key (newer format)",
        r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{80,200}", ("sk-proj-", "sk-svcacct-", "sk-admin-"),
        entropy=4.0, tp=("OPENAI_API_KEY=sk-proj-<<b64url:120>>",), fp=("sk-proj-<<lower:20>>",),
    ),
    prefixed(
        "anthropic-api-key", "Anthropic API key", r"sk-ant-(?:api|admin)\d{2}-[\w\-]{80,100}AA",
        ("sk-ant-",), entropy=3.5,
        tp=('ANTHROPIC_API_KEY="sk-ant-api03-<<b64url:93>>AA"', "key: sk-ant-admin01-<<b64url:93>>AA"),
        fp=("sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxAA",),
    ),
    prefixed(
        "huggingface-token", "Hugging Face access token", r"hf_[A-Za-z]{34}", ("hf_",), entropy=3.5,
        tp=("HF_TOKEN=hf_<<upper:10>><<lower:24>>",), fp=("hf_<<lower:10>>", "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ),
    prefixed(
        "huggingface-org-token", "Hugging Face organization API token", r"api_org_[A-Za-z]{34}",
        ("api_org_",), entropy=3.5, tp=("token = 'api_org_<<upper:14>><<lower:20>>'",), fp=("api_org_<<lower:8>>",),
    ),
    prefixed(
        "groq-api-key", "Groq API key", r"gsk_[A-Za-z0-9]{52}", ("gsk_",), entropy=3.5,
        tp=("GROQ_API_KEY=gsk_<<alnum:52>>",), fp=("gsk_<<alnum:20>>",),
    ),
    prefixed(
        "replicate-api-token", "Replicate API token", r"r8_[A-Za-z0-9]{37}", ("r8_",), entropy=3.5,
        tp=("REPLICATE_API_TOKEN=r8_<<alnum:37>>",), fp=("r8_<<alnum:10>>",),
    ),
    prefixed(
        "perplexity-api-key", "Perplexity API key", r"pplx-[A-Za-z0-9]{48}", ("pplx-",), entropy=3.5,
        tp=("PPLX_API_KEY=pplx-<<alnum:48>>",), fp=("pplx-<<alnum:8>>",),
    ),
    prefixed(
        "xai-api-key", "xAI API key", r"xai-[A-Za-z0-9]{80}", ("xai-",), entropy=3.5,
        tp=("XAI_API_KEY=xai-<<alnum:80>>",), fp=("xai-<<alnum:20>>",),
    ),
    prefixed(
        "langsmith-api-key", "LangSmith API key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", ("lsv2_",),
        entropy=3.0, tp=("LANGCHAIN_API_KEY=lsv2_pt_<<hex:32>>_<<hex:10>>",), fp=("lsv2_pt_<<hex:8>>",),
    ),
    keyed(
        "cohere-api-key", "Cohere API key", r"cohere|co_api", r"[A-Za-z0-9]{40}", ("cohere", "co_api"),
        entropy=3.5, tp=('COHERE_API_KEY="<<alnum:40>>"',), fp=('COHERE_API_KEY="<your cohere key>"',),
    ),
    keyed(
        "mistral-api-key", "Mistral API key", r"mistral", r"[A-Za-z0-9]{32}", ("mistral",), entropy=3.5,
        tp=("MISTRAL_API_KEY=<<alnum:32>>",), fp=("MISTRAL_API_KEY=os.environ['MISTRAL_API_KEY']",),
    ),
    keyed(
        "azure-openai-key", "Azure OpenAI / Cognitive Services key",
        r"azure[_\-]?(?:openai|cognitive|ai)|openai[_\-]?azure|cognitive[_\-]?services",
        r"[a-f0-9]{32}|[A-Za-z0-9]{84}", ("azure", "openai", "cognitive"),
        tp=("AZURE_OPENAI_API_KEY=<<hex:32>>",), fp=("AZURE_OPENAI_API_KEY=<<hex:8>>",),
    ),
    keyed(
        "pinecone-api-key", "Pinecone API key", r"pinecone",
        r"pcsk_[A-Za-z0-9_]{40,80}|[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
        ("pinecone",), tp=("PINECONE_API_KEY=<<uuid>>",), fp=("PINECONE_ENV=us-west1-gcp",),
    ),
    prefixed(
        "deepseek-like-sk-key", "Provider API key with bare sk- prefix (DeepSeek, Moonshot …)",
        r"sk-[a-f0-9]{32}", ("sk-",), entropy=3.2,
        tp=("DEEPSEEK_API_KEY=sk-<<hex:32>>",), fp=("sk-<<hex:8>>",),
    ),
]
